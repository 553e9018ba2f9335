export { loadConversationsScreen, loadChatScreen } from './routes';

export { useUnreadMessageTotal } from './api/queries';
export { MessagePosterLink } from './components/MessagePosterLink';
export { MessagesLink } from './components/MessagesLink';
export { useChatLiveSync } from './hooks/useChatLiveSync';
