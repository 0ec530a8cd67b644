// Owns ship-by dates and the views that rank orders by them.
export { shipByViews, type ShipByViews } from './views';
