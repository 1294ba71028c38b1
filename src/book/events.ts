import type { Side, TimeInForce } from '../core/types.ts';

/**
 * A new order handed to the book. Ids are integers chosen by the caller (the venue keeps the
 * mapping to wire ids); `ownerId` identifies the account for self-trade prevention.
 */
export interface PlaceCommand {
  orderId: number;
  ownerId: number;
  side: Side;
  priceTicks: number;
  qtyLots: number;
  tif: TimeInForce;
  postOnly: boolean;
}

/** The remainder of an order now rests on the book (after any fills). */
export interface RestedEvent {
  kind: 'rested';
  orderId: number;
  side: Side;
  priceTicks: number;
  qtyLots: number;
}

/** One execution between a resting maker and an incoming taker, at the maker's price. */
export interface TradeEvent {
  kind: 'trade';
  makerId: number;
  makerOwnerId: number;
  takerId: number;
  takerOwnerId: number;
  /** Side of the taker (the aggressor). */
  takerSide: Side;
  priceTicks: number;
  qtyLots: number;
  /** What is left of the maker after this trade (0 = fully filled, gone from the book). */
  makerRemainingLots: number;
  /** What is left of the taker after this trade. */
  takerRemainingLots: number;
}

/** The unfilled remainder of an IOC order. */
export interface ExpiredEvent {
  kind: 'expired';
  orderId: number;
  qtyLots: number;
}

/** Why the book refused a new order. */
export type BookRejectReason = 'POST_ONLY_WOULD_CROSS';

/** A new order refused before it touched the book. */
export interface RejectedEvent {
  kind: 'rejected';
  orderId: number;
  reason: BookRejectReason;
}

/** Why a resting order left the book without trading. */
export type BookCancelReason = 'REQUESTED' | 'SELF_TRADE';

/** A resting order removed without trading; `qtyLots` is what was still open. */
export interface CanceledEvent {
  kind: 'canceled';
  orderId: number;
  qtyLots: number;
  reason: BookCancelReason;
}

/** A resting order's open quantity was reduced in place (keeps its queue position). */
export interface ReducedEvent {
  kind: 'reduced';
  orderId: number;
  /** Lots taken off. */
  byLots: number;
  remainingLots: number;
}

/** A cancel or reduce named an order that is not resting on this book. */
export interface CancelRejectedEvent {
  kind: 'cancel-rejected';
  orderId: number;
  reason: 'UNKNOWN_ORDER';
}

/** Every outcome of a book command is one of these values; nothing is thrown for business rules. */
export type BookEvent =
  | RestedEvent
  | TradeEvent
  | ExpiredEvent
  | RejectedEvent
  | CanceledEvent
  | ReducedEvent
  | CancelRejectedEvent;

/** Top of book for one side. */
export interface LevelView {
  priceTicks: number;
  qtyLots: number;
}

/** A level with the open quantity of each order, in queue (time) order. */
export interface L3LevelView extends LevelView {
  orders: { orderId: number; qtyLots: number }[];
}

export interface L1View {
  bid: LevelView | undefined;
  ask: LevelView | undefined;
}

/** Bids by price descending, asks by price ascending (the market-data websocket's order). */
export interface L2View {
  bids: LevelView[];
  asks: LevelView[];
}

export interface L3View {
  bids: L3LevelView[];
  asks: L3LevelView[];
}
