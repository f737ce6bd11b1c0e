import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AssetSyncBridge } from '../../../shared/ipc.js';
import type { Store, UiState } from './store.js';

interface AppServices {
  bridge: AssetSyncBridge;
  store: Store;
}

const ServicesContext = createContext<AppServices | null>(null);

export function ServicesProvider({ bridge, store, children }: AppServices & { children: ReactNode }) {
  return <ServicesContext.Provider value={{ bridge, store }}>{children}</ServicesContext.Provider>;
}

export function useServices(): AppServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices outside ServicesProvider');
  return services;
}

export function useUiState(): UiState {
  const { store } = useServices();
  return useSyncExternalStore(store.subscribe, store.getState);
}
