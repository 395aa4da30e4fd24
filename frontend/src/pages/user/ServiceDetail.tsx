// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function ServiceDetail() {
  return <Placeholder title="Service" description="Documentation rendered from the docs JSON and the try-it console." />;
}
