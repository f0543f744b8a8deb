// A KvScopeApi for store tests, typed against the contract (shared/api/contract.ts). Every
// method is a vitest mock with the contract's input and output types: a faked method that no
// longer exists, or whose output changed shape, is a compile error in the test, not a silently
// passing fake. A method a test did not fake rejects with its name, so a test that starts to
// depend on one says which.
import { vi, type Mock } from 'vitest';
import {
  apiMethodNames,
  type ApiEventName,
  type ApiMethodName,
  type EventPayload,
  type KvScopeApi,
  type MethodInput,
  type MethodOutput,
} from '../../shared/api/contract';

type MethodFn<M extends ApiMethodName> = (input: MethodInput<M>) => Promise<MethodOutput<M>>;

/** The methods a test fakes; anything else rejects. */
export type FakeMethods = { [M in ApiMethodName]?: MethodFn<M> };

export type MockedApi = { [M in ApiMethodName]: Mock<MethodFn<M>> } & Pick<KvScopeApi, 'on'>;

export function fakeApi(methods: FakeMethods = {}): {
  api: MockedApi;
  emit: <E extends ApiEventName>(event: E, payload: EventPayload<E>) => void;
} {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const api: Record<string, unknown> = {};
  for (const name of apiMethodNames) {
    const given = methods[name] as ((input: unknown) => Promise<unknown>) | undefined;
    api[name] = vi.fn(given ?? (() => Promise.reject(new Error(`${name} is not faked in this test`))));
  }
  api.on = vi.fn((event: string, handler: (payload: unknown) => void) => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(handler);
    return () => void set.delete(handler);
  });
  const emit = <E extends ApiEventName>(event: E, payload: EventPayload<E>) =>
    listeners.get(event)?.forEach((h) => h(payload));
  return { api: api as MockedApi, emit };
}
