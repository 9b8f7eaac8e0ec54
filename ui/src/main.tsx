// Entry point of the inspector web app.
import { render } from 'preact';
import { App } from './app.js';
import { startEvents } from './bus.js';
import './style.css';

startEvents();
render(<App />, document.getElementById('app')!);
