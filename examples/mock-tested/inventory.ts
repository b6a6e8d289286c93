import { BadRequestError, PermissionDeniedError, type V1Car, type VsfClient } from '@vsf/sdk';

/**
 * A small integration, as a website's back office would write it: register cars from a form, publish the
 * ones for sale, and say plainly why a registration was refused. `inventory.test.ts` tests it against
 * @vsf/testing's mock, with no server running.
 */
export interface CarForm {
  year: number;
  make: string;
  model: string;
  askingPriceCents?: number | undefined;
}

/** Why a registration failed, for the person who filled in the form. */
export class RegistrationRefused extends Error {
  constructor(
    message: string,
    /** The form fields the API refused, each with the API's reason. */
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'RegistrationRefused';
  }
}

export async function registerCar(client: VsfClient, form: CarForm): Promise<V1Car> {
  try {
    return await client.cars.create({
      year: form.year,
      make: form.make,
      model: form.model,
      isForSale: form.askingPriceCents !== undefined,
      declaredValueCents: form.askingPriceCents ?? null,
    });
  } catch (error) {
    if (error instanceof PermissionDeniedError) {
      throw new RegistrationRefused(`This integration's API key cannot register cars (${error.message})`);
    }
    if (error instanceof BadRequestError && Array.isArray(error.details)) {
      const fields = Object.fromEntries(
        (error.details as { path: string; message: string }[]).map((d) => [d.path, d.message]),
      );
      throw new RegistrationRefused('Check the highlighted fields', fields);
    }
    throw error;
  }
}

/** Every car for sale, across all pages, as the website lists them. */
export async function carsForSale(client: VsfClient): Promise<{ id: string; title: string }[]> {
  const listed: { id: string; title: string }[] = [];
  for await (const car of client.cars.listAll({ limit: 200 })) {
    if (car.isForSale) listed.push({ id: car.id, title: `${car.year} ${car.make} ${car.model}` });
  }
  return listed;
}
