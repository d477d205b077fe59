MemcpyHtoD,0x00007f0000000000,4096

  kernel-2.traceg  
MemcpyDtoH,7f0000000000,16
kernel-1.traceg
