/**
 * A snapshot of plain data held in objects — the venue, the user directory, the index actors —
 * without a serializer per class: the object graph reachable from named roots is written as a
 * list of nodes (class name and own data fields, arrays, maps, sets, typed arrays, buffers) with
 * references by number, so shared and cyclic references come back as they were.
 *
 * Restoring needs no class-specific code either: it goes into a *fresh* graph built the same way
 * (the same scenario, seed and sim time), walking both from the roots in step. Every snapshot
 * object that has a fresh counterpart at the same place, of the same class, is filled in place —
 * so closures the clock holds (scheduled funding, marks, index steps) still point at the objects
 * the state lives in — and the others are created on the prototype of a fresh object of the
 * same class name. What the graph cannot hold is kept from the fresh side: functions, the clock
 * and the listener lists ({@link EXTERNAL_KEYS}). An object that would have to be created anew
 * while it holds such a thing cannot be rebuilt faithfully, and the restore refuses it
 * ({@link SnapshotMismatch}) rather than guess: the caller then replays the whole journal.
 */

/** Fields whose values belong to the running process, never to the snapshot: kept from the fresh graph. */
export const EXTERNAL_KEYS: ReadonlySet<string> = new Set(['clock', 'listeners', 'orderListeners', 'tradeListeners', 'hooked']);

/** A value in a node: JSON primitives as they are, anything else tagged. */
export type Value = null | boolean | number | string | { r: number } | { b: string } | { u: 1 } | { n: string };

export type GraphNode =
  /** an object: its class name (null: no prototype), own data fields, fields kept from the fresh side, frozen */
  | { c: string | null; f: Record<string, Value>; x?: string[]; z?: 1 }
  | { a: Value[] }
  | { m: [Value, Value][] }
  | { s: Value[] }
  | { t: string; d: string }
  | { buf: string };

export interface GraphImage {
  roots: Record<string, Value>;
  nodes: GraphNode[];
}

/** The snapshot does not fit the fresh graph (another build of the code, or state it cannot hold). */
export class SnapshotMismatch extends Error {}

const TYPED_ARRAYS: Record<string, new (b: ArrayBuffer) => ArrayBufferView> = {
  Int8Array,
  Uint8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
};

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

/** Own enumerable data fields (accessors and symbols are not state we keep). */
function dataKeys(o: object): string[] {
  return Object.keys(o).filter((k) => Object.getOwnPropertyDescriptor(o, k)!.get === undefined);
}

/** Writes the graph reachable from `roots` as an image (plain JSON once stringified). */
export function captureGraph(roots: Record<string, object>): GraphImage {
  const ids = new Map<object, number>();
  const nodes: GraphNode[] = [];
  const work: object[] = [];
  const ref = (o: object): Value => {
    let id = ids.get(o);
    if (id === undefined) {
      ids.set(o, (id = nodes.length));
      nodes.push(undefined as unknown as GraphNode);
      work.push(o);
    }
    return { r: id };
  };
  const value = (v: unknown): Value => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) && !Object.is(v, -0) ? v : { n: String(Object.is(v, -0) ? '-0' : v) };
      case 'bigint':
        return { b: v.toString() };
      case 'undefined':
        return { u: 1 };
      case 'object':
        return v === null ? null : ref(v);
      default:
        throw new SnapshotMismatch(`cannot snapshot a ${typeof v}`);
    }
  };
  const rootValues: Record<string, Value> = {};
  for (const name of Object.keys(roots)) rootValues[name] = ref(roots[name]!);
  for (let i = 0; i < work.length; i++) nodes[i] = nodeOf(work[i]!, value); // ids are given in `work` order
  return { roots: rootValues, nodes };
}

function nodeOf(o: object, value: (v: unknown) => Value): GraphNode {
  if (Buffer.isBuffer(o)) return { buf: o.toString('base64') };
  if (ArrayBuffer.isView(o)) {
    const name = o.constructor.name;
    if (TYPED_ARRAYS[name] === undefined) throw new SnapshotMismatch(`cannot snapshot a ${name}`);
    return { t: name, d: Buffer.from(o.buffer, o.byteOffset, o.byteLength).toString('base64') };
  }
  if (Array.isArray(o)) return { a: Array.from(o, value) };
  if (o instanceof Map) return { m: Array.from(o, ([k, v]) => [value(k), value(v)] as [Value, Value]) };
  if (o instanceof Set) return { s: Array.from(o, value) };
  const proto = Object.getPrototypeOf(o) as { constructor?: { name: string } } | null;
  if (o instanceof Promise || o instanceof WeakMap || o instanceof WeakSet) throw new SnapshotMismatch(`cannot snapshot a ${proto?.constructor?.name}`);
  const node: GraphNode = { c: proto === null ? null : (proto.constructor?.name ?? 'Object'), f: {} };
  const kept: string[] = [];
  for (const k of dataKeys(o)) {
    const v = (o as Record<string, unknown>)[k];
    if (typeof v === 'function' || EXTERNAL_KEYS.has(k)) kept.push(k);
    else node.f[k] = value(v);
  }
  if (kept.length > 0) node.x = kept;
  if (Object.isFrozen(o)) node.z = 1;
  return node;
}

/**
 * Puts the state of `image` into `fresh` (same root names), in place where it can (see the module
 * comment). `classes` are those whose objects come and go (an account's position, an order's
 * view): a fresh graph may hold none to take the prototype from. Throws {@link SnapshotMismatch}
 * when the image does not fit.
 */
export function restoreGraph(image: GraphImage, fresh: Record<string, object>, classes: readonly (abstract new (...args: never[]) => unknown)[] = []): void {
  const protos = prototypesOf(fresh);
  for (const c of classes) addPrototype(protos, c.prototype as object, c.name);
  const objects: (object | undefined)[] = new Array(image.nodes.length);
  const pair = (v: Value | undefined, f: unknown): void => {
    if (!isObject(v) || !('r' in v) || !isObject(f) || objects[v.r] !== undefined) return;
    const node = image.nodes[v.r]!;
    if (!sameKind(node, f)) return;
    objects[v.r] = f;
    if ('c' in node) for (const k of Object.keys(node.f)) pair(node.f[k], (f as Record<string, unknown>)[k]);
    else if ('a' in node) node.a.forEach((e, i) => pair(e, (f as unknown[])[i]));
    else if ('m' in node) for (const [k, e] of node.m) if (!isObject(k)) pair(e, (f as Map<unknown, unknown>).get(decodePrimitive(k)));
  };
  for (const name of Object.keys(fresh)) {
    const root = image.roots[name];
    pair(root, fresh[name]);
    if (!isObject(root) || !('r' in root) || objects[root.r] !== fresh[name]) throw new SnapshotMismatch(`root ${name} does not fit`);
  }
  image.nodes.forEach((node, id) => {
    if (objects[id] === undefined) objects[id] = shellOf(node, protos);
  });
  const decode = (v: Value): unknown => (isObject(v) && 'r' in v ? objects[v.r] : decodePrimitive(v));
  image.nodes.forEach((node, id) => fill(objects[id]!, node, decode));
}

function sameKind(node: GraphNode, f: object): boolean {
  if ('c' in node) return !Array.isArray(f) && !(f instanceof Map) && !(f instanceof Set) && !ArrayBuffer.isView(f) && (Object.getPrototypeOf(f)?.constructor?.name ?? null) === node.c;
  if ('a' in node) return Array.isArray(f);
  if ('m' in node) return f instanceof Map;
  if ('s' in node) return f instanceof Set;
  if ('t' in node) return ArrayBuffer.isView(f) && !Buffer.isBuffer(f) && f.constructor.name === node.t && f.byteLength === Buffer.byteLength(node.d, 'base64');
  return Buffer.isBuffer(f) && f.length === Buffer.byteLength(node.buf, 'base64');
}

function shellOf(node: GraphNode, protos: Map<string, object>): object {
  if ('c' in node) {
    if (node.x !== undefined) throw new SnapshotMismatch(`a new ${node.c} would need ${node.x.join(', ')} from the running process`);
    if (node.c === null) return Object.create(null) as object;
    const proto = protos.get(node.c);
    if (proto === undefined) throw new SnapshotMismatch(`no class ${node.c} in the fresh state to rebuild it on`);
    return Object.create(proto) as object;
  }
  if ('a' in node) return [];
  if ('m' in node) return new Map();
  if ('s' in node) return new Set();
  if ('t' in node) {
    const bytes = Buffer.from(node.d, 'base64');
    return new TYPED_ARRAYS[node.t]!(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return Buffer.from(node.buf, 'base64');
}

function fill(o: object, node: GraphNode, decode: (v: Value) => unknown): void {
  if ('c' in node) {
    if (Object.isFrozen(o) && node.z === 1 && dataKeys(o).length > 0) return; // immutable and already built (e.g. a config)
    const target = o as Record<string, unknown>;
    const keep = new Set(node.x);
    for (const k of dataKeys(o)) if (!(k in node.f) && !keep.has(k) && typeof target[k] !== 'function' && !EXTERNAL_KEYS.has(k)) delete target[k];
    for (const k of Object.keys(node.f)) target[k] = decode(node.f[k]!);
    if (node.z === 1) Object.freeze(o);
  } else if ('a' in node) {
    const a = o as unknown[];
    a.length = 0;
    for (const e of node.a) a.push(decode(e));
  } else if ('m' in node) {
    const m = o as Map<unknown, unknown>;
    m.clear();
    for (const [k, v] of node.m) m.set(decode(k), decode(v));
  } else if ('s' in node) {
    const s = o as Set<unknown>;
    s.clear();
    for (const v of node.s) s.add(decode(v));
  } else {
    const bytes = Buffer.from('t' in node ? node.d : node.buf, 'base64');
    const view = o as ArrayBufferView;
    new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(bytes);
  }
}

function decodePrimitive(v: Value): unknown {
  if (!isObject(v)) return v;
  if ('b' in v) return BigInt(v.b);
  if ('u' in v) return undefined;
  if ('n' in v) return v.n === '-0' ? -0 : Number(v.n);
  throw new SnapshotMismatch('a reference where a value was expected');
}

/** Class name → prototype, from every object of the fresh graph (a name used by two classes is refused). */
function prototypesOf(fresh: Record<string, object>): Map<string, object> {
  const protos = new Map<string, object>();
  const seen = new Set<object>();
  const visit = (o: unknown): void => {
    if (!isObject(o) || seen.has(o) || ArrayBuffer.isView(o)) return;
    seen.add(o);
    if (Array.isArray(o) || o instanceof Set) for (const e of o as Iterable<unknown>) visit(e);
    else if (o instanceof Map) for (const [k, v] of o) (visit(k), visit(v));
    else {
      const proto = Object.getPrototypeOf(o) as { constructor?: { name: string } } | null;
      const name = proto?.constructor?.name;
      if (proto !== null && name !== undefined) addPrototype(protos, proto, name);
      for (const k of dataKeys(o)) if (!EXTERNAL_KEYS.has(k)) visit((o as Record<string, unknown>)[k]);
    }
  };
  for (const root of Object.values(fresh)) visit(root);
  return protos;
}

function addPrototype(protos: Map<string, object>, proto: object, name: string): void {
  const known = protos.get(name);
  if (known !== undefined && known !== proto) throw new SnapshotMismatch(`two classes are named ${name}`);
  protos.set(name, proto);
}
