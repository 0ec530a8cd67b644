// Owns the stock of blanks: items, their reservations by jobs, deliveries, counts and movements.
export { releaseJobStock, reserveJobStock, stockShortage, useJobStock, type Shortage } from './reservations';
export { type StockBy } from './repo';
export { stockRoutes, type StockInPort } from './routes';
export { consumesSchema } from './schema';
export { checkStockUses, type LowStock, lowStockItems, STOCK_ITEM_NOT_FOUND, stockService, type StockService } from './service';
