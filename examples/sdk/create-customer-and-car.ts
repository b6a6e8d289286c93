// Creates a customer and a car that belongs to them, then reads the car back.
//   VSF_API_KEY=vsf_… npx tsx examples/sdk/create-customer-and-car.ts
import { BadRequestError, VsfClient } from '@vsf/sdk';

const client = new VsfClient();

try {
  const customer = await client.customers.create({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
  const car = await client.cars.create({
    year: 1967,
    make: 'Ford',
    model: 'Mustang',
    vin: '7R02C123456',
    customerId: customer.id,
  });
  const stored = await client.cars.get(car.id);
  console.log(JSON.stringify({ customerId: customer.id, carId: stored.id, owner: stored.customerId }));
} catch (error) {
  if (error instanceof BadRequestError) console.error('Rejected:', error.details);
  throw error;
}
