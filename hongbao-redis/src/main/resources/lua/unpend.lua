--[[
unpend.lua: takes a payout batch's paid grabs out of their users' pending hashes, on one server.

KEYS[i] pending hash  hb:{u:<user>}:pending   ARGV[i] the packet id of the grab KEYS[i]'s user made

Reply (integer): how many entries were there to remove. Fewer than #KEYS is no fault: an entry
outlived by its TTL, or a task paid and acknowledged twice (a reclaimed batch), finds nothing.

One call per batch instead of one HDEL per grab: each command cost the service its own encoding,
future and reply (the service's CPU per paid grab fell by 2 µs in the bench's drain with this
script; Redis's rose by under 1 µs). Only on one server, where every
key lives on the node that runs the script (as grab.lua writes the entries there); on a cluster the
hashes live in their users' slots and are cleared by one HDEL each.
--]]
local removed = 0
for i = 1, #KEYS do
  removed = removed + redis.call('HDEL', KEYS[i], ARGV[i])
end
return removed
