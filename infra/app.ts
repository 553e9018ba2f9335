import { App } from 'aws-cdk-lib';
import { buildApp } from './stacks/build-app.js';

// WEB_DIST_DIR points the web stack at another build of the SPA (default: web/dist).
buildApp(new App(), { webDistDir: process.env.WEB_DIST_DIR || undefined });
