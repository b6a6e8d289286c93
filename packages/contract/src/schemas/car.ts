import { field, fieldTable } from '../field-table.js';
import { z } from '../zod.js';
import { IndexedText, Int4, Int8, NameText } from './bounds.js';
import { Uuid } from './common.js';

export const MileageUnits = z
  .enum(['mi', 'km'])
  .openapi('MileageUnits', { description: 'What `mileage` counts: `mi` (miles) or `km` (kilometres)' });

/** A car's fields, each once: the record, both bodies, the list's filters and the references follow. */
export const carTable = fieldTable(
  'V1Car',
  {
    teamId: field(z.string(), { nullable: true, readOnly: true }),
    customerId: field(Uuid, {
      nullable: true,
      references: 'customers',
      filter: 'Only cars of this customer',
      doc: 'The customer who owns the car',
    }),
    locationId: field(Uuid, {
      nullable: true,
      references: 'locations',
      filter: 'Only cars at this location',
      doc: 'The location the car is kept at',
    }),
    vin: field(IndexedText, { nullable: true, filter: 'Exact VIN', doc: 'Vehicle identification number' }),
    stockNumber: field(IndexedText, { nullable: true, filter: 'Exact stock number', doc: 'The facility’s own number' }),
    year: field(Int4.min(1886).max(2100), { doc: 'Model year, 1886 to 2100', example: 1967 }),
    make: field(NameText.min(1), { example: 'Ford' }),
    model: field(NameText.min(1), { example: 'Mustang' }),
    trim: field(NameText, { nullable: true }),
    color: field(NameText, { nullable: true }),
    licensePlate: field(NameText, { nullable: true }),
    licensePlateState: field(NameText, { nullable: true, doc: 'The state or region that issued the plate' }),
    mileage: field(Int4, { nullable: true, doc: 'Odometer reading, in `mileageUnits`' }),
    mileageUnits: field(MileageUnits, {
      optional: true,
      record: z.string().nullable(),
      doc: 'What `mileage` counts: `mi` (miles) or `km` (kilometres)',
    }),
    parkingSpot: field(z.string(), { nullable: true, readOnly: true, doc: 'Label of the spot the car is parked in' }),
    parkingSpotId: field(Uuid, {
      nullable: true,
      references: 'parking.spots',
      doc: 'The spot the car is parked in',
    }),
    parkingZoneId: field(Uuid, {
      nullable: true,
      references: 'parking.zones',
      doc: 'The zone the car is parked in',
    }),
    vendorId: field(Uuid, { nullable: true, doc: 'The vendor the car came from, in the facility’s own system' }),
    isForSale: field(z.boolean(), { default: false }),
    declaredValueCents: field(Int8, { nullable: true, doc: 'Value the owner declared, in cents' }),
  },
  'A car stored at the facility. Every field is always present.',
);

export const V1Car = carTable.record;
export type V1Car = z.infer<typeof V1Car>;
export const V1CarCreate = carTable.createBody;
export type V1CarCreate = z.input<typeof V1CarCreate>;
export const V1CarUpdate = carTable.updateBody;
export type V1CarUpdate = z.input<typeof V1CarUpdate>;
