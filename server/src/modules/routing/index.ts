// Owns routing rules: each site's rule set, the floor's capacity per product type and day, and where each order line was routed and by whom.
export { capacityOf, decide, floorDay, matches, skuRegex, whenFull, whenOutOfStock, type LineFacts, type OrderFacts } from './evaluate';
export { type LineRouteRow } from './repo';
export { recordManualRoute } from './manual';
export { floorCapacityUsed, heldLineRoutes, lineRoutesOf, releaseFloorCapacity, saveLineRoute, saveLineRoutes } from './queries';
export { routingRoutes } from './routes';
export { routeNowBody, ruleSetBody, testBody } from './schema';
export { AUTO_SEND_RULE_SET, chooseRoute, planRoute, routesByItself, routingService, ruleSetOf, takeFloorCapacity, takeFloorCapacityFor, type FloorAsk, type PlannedRoute, type RouteChoice, type RoutingPorts, type RoutingService, type TakeCapacity } from './service';
