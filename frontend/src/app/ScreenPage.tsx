import { useEffect, type ComponentType } from 'react';
import type { Screen } from './routes';
import { useBrandName } from '../components/BrandMark';

/** A screen (its module already loaded by the router) with its document title (and the host's brand). */
export function ScreenPage({ screen, Page }: { screen: Screen; Page: ComponentType }) {
  const brandName = useBrandName();
  useEffect(() => {
    document.title = `${screen.title} · ${brandName}`;
  }, [screen.title, brandName]);
  return <Page />;
}
