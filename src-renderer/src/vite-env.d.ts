// Side-effect imports of style sheets are bundled by Vite.
declare module '*.css';
