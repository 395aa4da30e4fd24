import { Suspense, useEffect } from 'react';
import type { Screen } from './routes';
import { Loading } from '../components/States';

/** Renders a lazy screen with its document title and a loading fallback while its chunk arrives. */
export function ScreenPage({ screen }: { screen: Screen }) {
  useEffect(() => {
    document.title = `${screen.title} · Paygate`;
  }, [screen.title]);
  const Page = screen.page;
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}
