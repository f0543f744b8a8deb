// Fast Refresh's preamble as a module, not the inline <script> the React plugin would inject:
// the CSP (script-src 'self') blocks inline scripts, in development too. Empty in builds.
import '@vitejs/plugin-react/preamble';
import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getApiConnection } from './api';
import { createMemoryRing } from './live/ring-buffer';
import { RING_CAPACITY } from './live/live-config';
import { createAppStore } from './state/store';
import { App } from './ui/App';
import { trackFocusOutsideDialogs } from './ui/focus-return';
// The stylesheets by role, in cascade order (later files override earlier ones).
import './styles/base.css';
import './styles/layout.css';
import './styles/boards.css';
import './styles/dialogs.css';
import './styles/forms.css';
import './styles/run.css';
import './styles/dashboard.css';

// Before anything can open a dialog: a dialog's action may leave the focus on <body> (ui/focus-return.ts).
trackFocusOutsideDialogs();
const connection = getApiConnection();
const store = createAppStore({ api: connection.api, ring: createMemoryRing(RING_CAPACITY) });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={store} connection={connection} />
  </StrictMode>,
);
