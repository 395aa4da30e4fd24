// Placeholder: replace this file's body with the screen (route: see src/app/routes.tsx).
import { Placeholder } from '../../components/Placeholder';

export default function Profile() {
  return <Placeholder title="Profile and sessions" description="Your details, password, webhook URL, low-balance alert and signed-in sessions." />;
}
