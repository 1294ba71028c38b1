/**
 * The interface document's vocabulary: the shapes that cross the wire, as types only. Everything
 * that talks to an exchange (strategies, agents, the wire client) speaks these; the simulated
 * venue produces them in src/venue/wire-forms.ts and src/venue/risk-view.ts.
 */
export type { FillDetails, NewOrder, OrderFeed, RestOrder, WsOrder } from './order.ts';
export { MARKET_DATA_LEVELS, MAX_MARKET_DATA_DEPTH, depthProblem, type BookLevel, type BookUpdate, type MarketDataLevel, type MarketDataMessage, type TickerStats } from './market-data.ts';
export type { ApiRiskSnapshot, PositionRiskSnapshot, PositionView, SymbolRiskView } from './risk.ts';
export type { CandleHistory, CandleRecord, FundingRateRecord, InstrumentInfo, MarkPriceRecord } from './records.ts';
