"""The network side of one process: a connection's session (its state table, its one
send path, the framing of what tables deliver), summaries and presence as sent, rate
limits per connection; what a plain HTTP request is answered with (the browser
client's files)."""
