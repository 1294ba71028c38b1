import { MAX_TOKEN_SECONDS } from '../auth/user-directory.ts';
import { int, str } from './validation.ts';
import { PRICE_MAX_LENGTH, PRICE_PATTERN } from '../../wire/order.ts';

/**
 * Field rules the interface document states (its "Limits" table), shared by the routes so one
 * rule has one spelling. Patterns are kept as the document's text, which is what pydantic's
 * `string_pattern_mismatch` message quotes.
 */

/** username: length 1 to 50, pattern ^[-A-Za-z0-9_@.+]+$. */
export const USERNAME = str({ min: 1, max: 50, pattern: '^[-A-Za-z0-9_@.+]+$' });

/** password of the token endpoint: length 1 to 50. */
export const PASSWORD = str({ min: 1, max: 50 });

/** symbol (insert_order, settlement, instrument path): length 1 to 20, pattern ^[-A-Z0-9]+$. */
export const SYMBOL = str({ min: 1, max: 20, pattern: '^[-A-Z0-9]+$' });

/** price (insert_order): length 1 to 10, pattern ^\d+\.?\d*$. */
export const PRICE = str({ min: 1, max: PRICE_MAX_LENGTH, pattern: PRICE_PATTERN.source });

/** expiration_seconds: an integer from 1 to 2,592,000 (decisions.md). */
export const EXPIRATION_SECONDS = int({ ge: 1, le: MAX_TOKEN_SECONDS });
