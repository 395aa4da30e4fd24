// Mantine's styles, loaded by main.tsx as a chunk of their own: a script
// inserts the stylesheet, so the HTML has no render-blocking CSS, and the
// first screen's chunk loads meanwhile. The date pickers' and the charts'
// styles come with their own chunks.
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
