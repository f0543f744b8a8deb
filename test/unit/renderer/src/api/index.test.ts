// The page key's trip from the URL fragment to sessionStorage (renderer/src/api/index.ts).
import { describe, expect, it, vi } from 'vitest';
import { takePageKey } from '../../../../../renderer/src/api/index';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    items,
  };
}

describe('takePageKey', () => {
  it('takes the key from the fragment, keeps it for reloads and cleans the address bar', () => {
    const storage = memoryStorage();
    const history = { replaceState: vi.fn() };
    const key = takePageKey({ hash: '#kvscope-key=abc.def', pathname: '/', search: '?run=1' }, storage, history);
    expect(key).toBe('abc.def');
    expect(storage.items.get('kvscope-page-key')).toBe('abc.def');
    expect(history.replaceState).toHaveBeenCalledWith(null, '', '/?run=1');
  });

  it('after a reload (no fragment) uses the stored key, and touches no history', () => {
    const history = { replaceState: vi.fn() };
    const storage = memoryStorage({ 'kvscope-page-key': 'abc.def' });
    expect(takePageKey({ hash: '', pathname: '/', search: '' }, storage, history)).toBe('abc.def');
    expect(history.replaceState).not.toHaveBeenCalled();
  });

  it('is null for a page opened without the printed URL, and survives a storage that refuses', () => {
    expect(takePageKey({ hash: '#other=1', pathname: '/', search: '' }, memoryStorage(), null)).toBeNull();
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(takePageKey({ hash: '', pathname: '/', search: '' }, refusing, null)).toBeNull();
    expect(takePageKey({ hash: '#kvscope-key=k.m', pathname: '/', search: '' }, refusing, null)).toBe('k.m');
  });
});
