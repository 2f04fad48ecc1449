/**
 * The ALTCHA widget, loaded only when a captcha is shown (captcha.tsx). The "external" build keeps
 * its proof-of-work workers out of the bundle: we register ours, a same-origin file built by Vite,
 * so the Content-Security-Policy needs no blob: workers.
 */
import 'altcha/external';
import 'altcha/altcha.css';
// The widget speaks the page's language (it reads <html lang>); English is built in. A third
// language of the portal adds its file here (3.6 kB each).
import 'altcha/i18n/de';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';

globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
