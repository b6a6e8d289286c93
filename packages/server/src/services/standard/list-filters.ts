import type { ListFilter } from './team-resource.js';

/** A time filter: the row's `field` compared with the query's timestamp (`from` → `>=`, `to` → `<`…). */
export const compareTime =
  <Row>(field: keyof Row & string, operator: '<' | '>' | '>='): ListFilter<Row> =>
  (query, value, column) => {
    if (value) query.where(column(field), operator, new Date(value as string));
  };
