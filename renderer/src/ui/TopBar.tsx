import { useAppStore } from './store-context';

const CONNECTION_TEXT = {
  connecting: 'connecting…',
  open: 'connected',
  reconnecting: 'reconnecting…',
  refused: 'KVScope restarted: open its new URL',
  closed: 'disconnected',
} as const;

export function TopBar() {
  const appInfo = useAppStore((s) => s.appInfo);
  const connection = useAppStore((s) => s.connection);
  return (
    <header className="topbar">
      <div className="brand">
        <svg className="brand-mark" viewBox="0 0 24 24" aria-hidden="true">
          <rect x="2" y="14" width="4" height="8" rx="1" />
          <rect x="8" y="10" width="4" height="12" rx="1" />
          <rect x="14" y="6" width="4" height="16" rx="1" />
          <path d="M2 9 L20 2" />
        </svg>
        <span className="brand-name">KVScope</span>
        <span className="brand-tagline">KV-cache and memory profiler for edge inference</span>
      </div>
      <div className="topbar-meta">
        {appInfo && (
          <span className="badge" data-testid="shell-badge">
            {appInfo.shell === 'web' ? 'Browser mode' : 'Desktop'} · v{appInfo.version} · {appInfo.platform}
          </span>
        )}
        <span className={`connection connection-${connection}`} data-testid="connection-state">
          <span className="connection-dot" aria-hidden="true" />
          {CONNECTION_TEXT[connection]}
        </span>
      </div>
    </header>
  );
}
