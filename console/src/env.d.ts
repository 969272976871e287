// Stylesheets imported for their side effect (Vite bundles them into CSS files).
declare module '*.css';
