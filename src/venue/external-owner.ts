/**
 * The owner of replayed (recorded) liquidity on a venue book. It is no account: its orders
 * carry no margin, fees or positions, and trades against it settle only the account side.
 */
export const EXTERNAL_OWNER = -1;

/** Order id shown for the external side of a trade (trade records, event logs). */
export const EXTERNAL_ORDER_ID = 'EXTERNAL';

/** Username shown for the external side (event logs, reports). */
export const EXTERNAL_USERNAME = 'external';
