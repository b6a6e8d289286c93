import { z } from '../zod.js';
import { IndexedText, Int4, Int8, NameText } from './bounds.js';
import { Uuid } from './common.js';
import { allOptional, teamRecord } from './team-record.js';

export const MileageUnits = z.enum(['mi', 'km']).openapi('MileageUnits');

export const V1Car = teamRecord(
  'V1Car',
  {
    teamId: z.string().nullable(),
    customerId: Uuid.nullable(),
    locationId: Uuid.nullable(),
    vin: z.string().nullable(),
    stockNumber: z.string().nullable(),
    year: z.number().int(),
    make: z.string(),
    model: z.string(),
    trim: z.string().nullable(),
    color: z.string().nullable(),
    licensePlate: z.string().nullable(),
    licensePlateState: z.string().nullable(),
    mileage: z.number().int().nullable(),
    mileageUnits: z.string().nullable(),
    parkingSpot: z.string().nullable().openapi({ description: 'Label of the spot the car is parked in' }),
    parkingSpotId: Uuid.nullable(),
    parkingZoneId: Uuid.nullable(),
    vendorId: Uuid.nullable(),
    isForSale: z.boolean(),
    declaredValueCents: z.number().int().nullable(),
  },
  'A car stored at the facility. Every field is always present.',
);
export type V1Car = z.infer<typeof V1Car>;

const carFields = {
  year: z.number().int().min(1886).max(2100).openapi({ example: 1967 }),
  make: NameText.min(1).openapi({ example: 'Ford' }),
  model: NameText.min(1).openapi({ example: 'Mustang' }),
  trim: NameText.nullable().optional(),
  color: NameText.nullable().optional(),
  vin: IndexedText.nullable().optional(),
  stockNumber: IndexedText.nullable().optional(),
  licensePlate: NameText.nullable().optional(),
  licensePlateState: NameText.nullable().optional(),
  mileage: Int4.nullable().optional(),
  mileageUnits: MileageUnits.optional(),
  customerId: Uuid.nullable().optional(),
  locationId: Uuid.nullable().optional(),
  parkingSpotId: Uuid.nullable().optional(),
  parkingZoneId: Uuid.nullable().optional(),
  vendorId: Uuid.nullable().optional(),
  isForSale: z.boolean().optional(),
  declaredValueCents: Int8.nullable().optional(),
};

export const V1CarCreate = z.strictObject(carFields).openapi('V1CarCreate');
export type V1CarCreate = z.input<typeof V1CarCreate>;

export const V1CarUpdate = z.strictObject(allOptional(carFields)).openapi('V1CarUpdate');
export type V1CarUpdate = z.input<typeof V1CarUpdate>;
