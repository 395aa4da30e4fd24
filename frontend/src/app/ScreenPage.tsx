import { useEffect, type ComponentType } from 'react';
import type { Screen } from './routes';

/** A screen (its module already loaded by the router) with its document title. */
export function ScreenPage({ screen, Page }: { screen: Screen; Page: ComponentType }) {
  useEffect(() => {
    document.title = `${screen.title} · Paygate`;
  }, [screen.title]);
  return <Page />;
}
