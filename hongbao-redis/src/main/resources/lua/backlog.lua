--[[
backlog.lua: how many payout tasks wait in a group of payout streams.

KEYS[1..n] payout streams  hb:{sNNN}:payouts, all on one server (and, on a cluster, one slot)
No ARGV.

Reply (integer): the sum of the streams' lengths. A stream holds exactly the tasks not yet
acknowledged (ack.lua keeps it so), whether delivered or not.

One call instead of one XLEN per stream: the gauge is scraped often, and 1,024 commands per scrape
cost the service and Redis more than the sum. Read-only, so atomicity does not matter.
--]]
local total = 0
for i = 1, #KEYS do
  total = total + redis.call('XLEN', KEYS[i])
end
return total
