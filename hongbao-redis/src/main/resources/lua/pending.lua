--[[
pending.lua: records a grabbed-but-unpaid share in its user's pending hash, on a cluster.

KEYS[1] pending hash  hb:{u:<user>}:pending   packetId -> amount (fen)
ARGV[1] packetId   ARGV[2] amount (fen)   ARGV[3] the hash's TTL (ms)

Reply (integer): 1.

The hash lives in the user's slot, not the packet's, so on a cluster grab.lua cannot write it (on
one server it does, see grab.lua's ARGV[6]); this script makes the follow-up write one command
instead of HSET and PEXPIRE. Atomic: the entry never exists without its TTL, which bounds an entry
that lost the race with its own ack (the HDEL landing first).
--]]
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
