// Owns the packing bench's scan: a copy's barcode advancing its job and order.
export { scanRoutes } from './routes';
export { scanService } from './service';
