internal import CLibWebSockets
enum TransportPlaceholder {}
