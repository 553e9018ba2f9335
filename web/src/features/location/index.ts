export { LocationBadge } from './components/LocationBadge';
export { LocationBlock } from './components/LocationBlock';
export { LocationPromptBanner } from './components/LocationPromptBanner';
export { browserTimeZone, currentPosition, positionErrorText, useLocationSettings, useQuietHoursZoneKeptCurrent } from './hooks/useLocationSettings';
