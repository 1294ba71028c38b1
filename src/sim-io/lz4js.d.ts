/** The two functions of lz4js (LZ4 frame format, pure JavaScript) that perpsim uses. */
declare module 'lz4js' {
  /** `src` as one LZ4 frame. */
  export function compress(src: Uint8Array): Uint8Array;
  /** The bytes of the LZ4 frame `src`. */
  export function decompress(src: Uint8Array, maxSize?: number): Uint8Array;
}
