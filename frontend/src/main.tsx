import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './app/global.css';
import { App } from './app/App';
import { createRouter } from './app/router';
import { session } from './auth/session';

// Signed in before this page load? The refresh cookie tells (the token lives in memory only).
void session.restore();

// The router starts loading the first screen's chunk now, while Mantine's
// stylesheet loads (a chunk of its own, not a render-blocking <link>); the
// app renders once the styles are in, so nothing shows unstyled.
const router = createRouter();
void import('./app/styles')
  .catch(() => { /* unstyled beats blank: render anyway */ })
  .then(() => {
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  });
