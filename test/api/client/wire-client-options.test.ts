import { describe, expect, it } from 'vitest';
import { appUrl, marketDataSocketUrl, orderSocketUrl, restUrl, type WireClientOptions } from '../../../src/api/client/wire-client-options.ts';

const urls = (options: Omit<WireClientOptions, 'username'>) => {
  const o = { username: 'alice', ...options };
  return { rest: restUrl(o), app: appUrl(o), orders: orderSocketUrl(o), md: marketDataSocketUrl(o) };
};

describe("the wire client's endpoints", () => {
  it('all follow from baseUrl alone: its host over http, the websockets with the ws scheme, trailing slashes dropped', () => {
    expect(urls({ baseUrl: 'http://127.0.0.1:8080/' })).toEqual({
      rest: 'http://127.0.0.1:8080',
      app: 'http://127.0.0.1:8080',
      orders: 'ws://127.0.0.1:8080/orders',
      md: 'ws://127.0.0.1:8080/md/ws',
    });
    expect(urls({ baseUrl: 'https://venue.example' }).orders).toBe('wss://venue.example/orders');
  });

  it('take wsUrl for both websockets, mdWsUrl for market data only, appUrl for the app host', () => {
    expect(urls({ baseUrl: 'https://api.example', wsUrl: 'wss://ws.example//', appUrl: 'https://app.example/' })).toEqual({
      rest: 'https://api.example',
      app: 'https://app.example',
      orders: 'wss://ws.example/orders',
      md: 'wss://ws.example/md/ws',
    });
    expect(urls({ baseUrl: 'https://api.example', wsUrl: 'wss://ws.example', mdWsUrl: 'wss://md.example/' })).toMatchObject({
      orders: 'wss://ws.example/orders',
      md: 'wss://md.example/md/ws',
    });
  });
});
