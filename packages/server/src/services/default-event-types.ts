import type { V1EventType } from '@vsf/contract';

type DefaultEventType = Pick<V1EventType, 'value' | 'name' | 'scope'> & { requiresParkingSpot: boolean };

/** Every team starts with these; `drop_off` and `pick_up` drive parking, the others cover each scope. */
export const DEFAULT_EVENT_TYPES: readonly DefaultEventType[] = [
  { value: 'drop_off', name: 'Drop-off', scope: 'vehicle', requiresParkingSpot: true },
  { value: 'pick_up', name: 'Pick-up', scope: 'vehicle', requiresParkingSpot: false },
  { value: 'interior_cleaning', name: 'Interior cleaning', scope: 'vehicle', requiresParkingSpot: false },
  { value: 'inspection', name: 'Inspection', scope: 'vehicle', requiresParkingSpot: false },
  { value: 'customer_consultation', name: 'Customer consultation', scope: 'customer', requiresParkingSpot: false },
  { value: 'facility_walkthrough', name: 'Facility walkthrough', scope: 'facility', requiresParkingSpot: false },
];
