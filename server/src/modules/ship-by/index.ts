// Owns ship-by dates and the views that rank orders by them.
export { checkShipBySettings } from './settings';
export { shipByViews, type ShipByViews } from './views';
