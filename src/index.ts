/**
 * perpsim's public surface: `import { … } from 'perpsim'`. A strategy needs only the types
 * (`Strategy`, `ExchangePort`, the wire's shapes) and `z` for its params schema; programs that
 * drive perpsim use the factories (`runBacktest`, `loadScenario`, `buildRun`, `Exchange` +
 * `startServer`, `WireExchangePort`). Everything here is built to dist/ by `npm run build`.
 */

// Writing a strategy.
export type { Strategy } from './strategy/strategy.ts';
export type { ExchangePort } from './strategy/exchange-port.ts';
export * from './wire/index.ts';
export type { Side, TimeInForce, OrderState, RejectReason, CancelReason, InstrumentState, TimeNs } from './core/types.ts';
export { TickSize } from './core/price.ts';
export { formatMoney, parseMoney, type Money } from './core/money.ts';
export { formatTimestampNs, parseDuration, parseTimestamp } from './core/time.ts';
/** zod, the version perpsim validates with: for a strategy's `paramsSchema`. */
export { z } from 'zod';

// Running it: in-process backtests, a server, the wire client.
export { runBacktest, BacktestError, type BacktestConfig, type BacktestResult } from './backtest/runner.ts';
export { buildReport, reportJson, type BacktestReport } from './backtest/report.ts';
export { loadScenario, parseScenario, builtInScenarios, ScenarioError } from './scenario/load.ts';
export { buildRun, type BuiltRun, type RunOptions } from './run/build-run.ts';
export type { Scenario } from './scenario/schema.ts';
export { Exchange, type ExchangeOptions } from './api/exchange.ts';
export { startServer, type RunningServer, type ServerOptions } from './api/server.ts';
export { WireExchangePort } from './api/client/wire-exchange-port.ts';
export type { WireClientOptions } from './api/client/wire-client-options.ts';
