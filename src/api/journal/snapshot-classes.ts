import { RandomStream } from '../../random/random-stream.ts';
import { FifoLots } from '../../risk/fifo-lots.ts';
import { Position } from '../../risk/position.ts';
import { Account, AccountPosition } from '../../venue/account.ts';
import { OrderView } from '../../venue/order-view.ts';

/**
 * Classes whose objects come and go with trading (a new user's account, a position, an order's
 * view, a random stream drawn for the first time): a freshly built exchange may hold none of
 * them, so a snapshot's objects of these classes are rebuilt on these prototypes. A class
 * missing here makes a restore from a snapshot refuse and replay the whole journal instead
 * (test/hardening/snapshots.test.ts fails first).
 */
export const SNAPSHOT_CLASSES = [Account, AccountPosition, OrderView, Position, FifoLots, RandomStream];
