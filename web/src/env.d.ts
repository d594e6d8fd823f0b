// esbuild bundles imported stylesheets into the CSS file next to the script
declare module '*.css';
