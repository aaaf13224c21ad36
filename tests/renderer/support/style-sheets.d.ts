// The renderer's components import their style sheets (Vite bundles them); the root typecheck of the
// tests sees those imports too.
declare module '*.css';
