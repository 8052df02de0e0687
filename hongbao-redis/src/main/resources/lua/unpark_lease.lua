--[[
unpark_lease.lua: takes or renews the lease on sending a type's parked rewards back.

KEYS[1] the type's lease key  hb:rwp:{<type>}:unparking
ARGV[1] owner (the instance)
ARGV[2] lease (ms)

Reply (integer): 1 the owner holds the lease for ARGV[2] ms from now; 0 another owner holds it.

Atomic so two instances never both hold it: each parked reward goes back once, not once per
instance.
--]]
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
return 1
