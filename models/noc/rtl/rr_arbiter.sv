// Per-output round-robin switch arbiter of the one-hop crossbar (noc.type full): the RTL twin of the C++
// RoundRobinArbiter (models/noc/arbiter.cpp), co-simulated through Verilator (docs/cosim.md).
//
// One cycle: while `valid` is high, the outputs are served in the order `order` lists them; each grants the
// first requesting input at or after its priority pointer (cyclically), skipping inputs that an output served
// before it granted this cycle. Grants are combinational from valid, req, order and the pointers. On the
// rising clock edge each output that granted moves its pointer to the input after its winner (input 0 after
// n_inputs - 1); the others keep theirs, and an edge without `valid` changes no pointer. The transactor
// raises `valid` with the requests and lowers it at the edge that takes the arbitration. The C++ arbiter
// serves outputs in order of first request, so the transactor puts them first in `order`, in that order
// (docs/cosim.md, "Order of service").
//
// Synthesizable; the grant path is a chain of OUTPUTS priority encoders (each output's choice depends on the
// inputs taken before it), which is what the C++ loop computes.
`timescale 1ns / 1ps

module rr_arbiter #(
    parameter int INPUTS  = 32,  // capacity: a crossbar may use fewer (n_inputs)
    parameter int OUTPUTS = 32,
    localparam int IW = INPUTS > 1 ? $clog2(INPUTS) : 1,    // an input's index
    localparam int OW = OUTPUTS > 1 ? $clog2(OUTPUTS) : 1,  // an output's index
    localparam int NW = $clog2(INPUTS + 1)                  // 0 .. INPUTS
) (
    input  logic                      clk,
    // Synchronous, active high: every pointer to input 0; no grants while high.
    input  logic                      rst  /*verilator public_flat_rd*/,
    input  logic [NW-1:0]             n_inputs,   // inputs in use (1 .. INPUTS): pointers wrap there
    input  logic                      valid  /*verilator public_flat_rd*/,  // req and order hold a request
    input  logic [OUTPUTS*INPUTS-1:0] req,        // bit o*INPUTS + i: input i requests output o
    input  logic [OUTPUTS*OW-1:0]     order,      // field k: the output served k-th (a permutation)
    output logic [OUTPUTS-1:0]        gnt  /*verilator public_flat_rd*/,  // bit o: output o granted
    output logic [OUTPUTS*IW-1:0]     gnt_input   // field o: the input output o granted (0 if none)
);

  // Priority pointers: per output, the input first in line (the one after its last winner).
  logic [IW-1:0] ptr_q[OUTPUTS]  /*verilator public_flat_rd*/;
  // Inputs granted by the outputs served so far (after the last: every input granted this cycle).
  logic [INPUTS-1:0] taken  /*verilator public_flat_rd*/;
  // Per-output views of the request and grant vectors: wires for waveforms (the transactor traces every
  // public_flat_rd signal into the run's VCD).
  logic [INPUTS-1:0] req_o[OUTPUTS]  /*verilator public_flat_rd*/;
  logic [IW-1:0] gnt_input_o[OUTPUTS]  /*verilator public_flat_rd*/;
  for (genvar g = 0; g < OUTPUTS; g++) begin : g_views
    assign req_o[g] = req[g*INPUTS+:INPUTS];
    assign gnt_input_o[g] = gnt_input[g*IW+:IW];
  end

  // The lowest set bit of v (v != 0).
  function automatic logic [IW-1:0] lowest(input logic [INPUTS-1:0] v);
    lowest = '0;
    for (int i = INPUTS - 1; i >= 0; i--) if (v[i]) lowest = IW'(i);
  endfunction

  always_comb begin
    logic [OW-1:0] o;
    logic [INPUTS-1:0] cand, upper, pick;
    logic [IW-1:0] win;
    o = '0;
    cand = '0;
    upper = '0;
    pick = '0;
    win = '0;
    taken = '0;
    gnt = '0;
    gnt_input = '0;
    // Only while valid: the free-running clock makes the model evaluate at every edge, and a cycle
    // without a request then costs no walk through the chain.
    if (valid && !rst) begin
      for (int k = 0; k < OUTPUTS; k++) begin
        o = order[k*OW+:OW];
        cand = req[int'(o)*INPUTS+:INPUTS] & ~taken;
        upper = cand & ({INPUTS{1'b1}} << ptr_q[o]);  // requesters at or after the pointer
        pick = (upper != '0) ? upper : cand;  // none: wrap around to the lowest requester
        win = lowest(pick);
        if (pick != '0) begin
          gnt[o] = 1'b1;
          gnt_input[int'(o)*IW+:IW] = win;
          taken[win] = 1'b1;
        end
      end
    end
  end

  // gnt is low without valid: an edge in a cycle without an arbitration moves no pointer.
  always_ff @(posedge clk) begin
    if (rst) begin
      for (int o = 0; o < OUTPUTS; o++) ptr_q[o] <= '0;
    end else if (valid) begin
      for (int o = 0; o < OUTPUTS; o++)
        if (gnt[o])
          ptr_q[o] <= (int'(gnt_input[o*IW+:IW]) + 1 == int'(n_inputs)) ? '0
                    : IW'(int'(gnt_input[o*IW+:IW]) + 1);
    end
  end

endmodule
