"""The network check: from the classroom's browser, which of the two links works, and how well.

The page (`views.page`) opens the WebSocket (`consumers.CheckSocket`) and the fallback (the
event stream `consumers.CheckStream` plus POSTs to `views.echo`), times echoes on each, keeps
both open NETWORK_CHECK_SECONDS, and says what the class will use and what to ask the IT
service to open. Anyone may open it: it shows nothing but the server's own address.
"""
