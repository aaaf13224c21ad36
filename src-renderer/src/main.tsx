import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerTransportConnected } from './api/transport-events';
import { createWebTransport } from './api/web-transport';
import { App } from './app/App';
import './styles.css';

// The desktop app gets `window.api` from its preload. A browser (web mode) has none: the same contract
// is then spoken over HTTP and a WebSocket to the server that served this page. This runs before the
// first render so that the `#token=` fragment is read and removed before the router looks at the hash.
if (!window.api) {
  const transport = createWebTransport();
  window.api = transport.api;
  registerTransportConnected(transport.onConnected);
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
