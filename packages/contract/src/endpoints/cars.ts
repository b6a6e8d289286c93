import { cars } from './car-resource.js';

export const { listCars, getCar, createCar, updateCar } = cars.endpoints;
