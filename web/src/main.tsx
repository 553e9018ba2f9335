import { createRoot } from 'react-dom/client';
import { App } from './App';
import { BootScreen } from './components/BootScreen';
import { configureAmplify, loadRuntimeConfig } from './config';
import './styles.css';
import './styles/jobs.css';
import './styles/shell.css';
import './styles/payments.css';
import './styles/notifications.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);

root.render(<BootScreen failed={false} />);
loadRuntimeConfig().then(
  (config) => {
    configureAmplify(config);
    root.render(<App config={config} />);
  },
  (error: unknown) => {
    console.error('Could not load /config.json', error);
    root.render(<BootScreen failed />);
  },
);
