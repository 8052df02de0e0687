--[[
hold.lua: stop grabs on a packet whose state here belongs to another packet.

KEYS[1] meta hash  hb:{sNNN}:p:<id>
ARGV[1] createdAt (ms) of the state to hold: only that state is held, never a newer one

Reply (integer): 1 held now or before, 0 the state is not the one named (nothing changed).

When PostgreSQL is restored from a backup while Redis keeps newer state, a packet id can be handed
out again; the arm then finds another packet's state under the id. Status H makes every grab of it
answer HELD instead of selling that state's shares. Atomic: one HMGET and one HSET on one key.
--]]
local created = redis.call('HGET', KEYS[1], 'createdAt')
if created ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'status', 'H')
return 1
