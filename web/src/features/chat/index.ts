export { loadConversationsScreen, loadChatScreen } from './routes';

export { useUnreadMessageTotal } from './api/fetch-unread-messages';
export { MessagePosterLink } from './components/MessagePosterLink';
export { useChatLiveSync } from './hooks/useChatLiveSync';
