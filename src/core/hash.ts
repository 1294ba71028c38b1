/**
 * 64-bit FNV-1a over strings, in pure TypeScript (the core does no I/O and imports no node:*).
 * Used for `stateHash()`: cheap, deterministic, identical on every machine. Not cryptographic.
 */
export class Fnv1a64 {
  // The 64-bit state as two unsigned 32-bit halves.
  private hi = 0xcbf29ce4;
  private lo = 0x84222325;

  /** Feeds the UTF-16 code units of `text` (each as two bytes) and a separator. */
  update(text: string): this {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      this.byte(c & 0xff);
      this.byte(c >>> 8);
    }
    this.byte(0x1f); // unit separator: "ab","c" and "a","bc" hash differently
    return this;
  }

  /** The hash as 16 lowercase hex digits. */
  hex(): string {
    return this.hi.toString(16).padStart(8, '0') + this.lo.toString(16).padStart(8, '0');
  }

  private byte(b: number): void {
    // h ^= b; h *= 2^40 + 0x1b3 (mod 2^64), with 32-bit halves.
    const lo = (this.lo ^ b) >>> 0;
    const loProduct = lo * 0x1b3; // < 2^41, exact in a double
    const carry = Math.floor(loProduct / 0x1_0000_0000);
    this.lo = loProduct >>> 0;
    this.hi = (Math.imul(this.hi, 0x1b3) + carry + (lo << 8)) >>> 0;
  }
}

/** Hash of a list of strings, in order. */
export function hashStrings(parts: Iterable<string>): string {
  const h = new Fnv1a64();
  for (const p of parts) h.update(p);
  return h.hex();
}

/**
 * A stable UUID-shaped id derived from a name (version 8, "custom", RFC 9562): the same
 * username always gets the same `user_id`, with no randomness and no node:crypto in the core.
 */
export function uuidFromName(name: string): string {
  const a = new Fnv1a64().update('perpsim-user-a').update(name).hex();
  const b = new Fnv1a64().update('perpsim-user-b').update(name).hex();
  const hex = a + b;
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
