import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { connectBridge } from './bridge/index.js';
import { startBrowserNotifications } from './store/browser-notifications.js';
import { ServicesProvider } from './store/context.js';
import { connectHistory, routeOfPage } from './store/history.js';
import { createStore } from './store/store.js';
import './styles.css';

const { bridge, connection } = connectBridge();
const store = createStore(bridge, routeOfPage(window), { connection });
connectHistory(store, window);
startBrowserNotifications(bridge, store);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <ServicesProvider bridge={bridge} store={store}>
      <App />
    </ServicesProvider>
  </StrictMode>,
);
