#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
int main(int c,char**v){char b[65536];int n=atoi(v[2]);struct timespec a,z;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&a);
for(int i=0;i<n;i++){int f=open(v[1],O_RDONLY);while(read(f,b,sizeof b)>0);close(f);}
clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&z);printf("%s: %.1f us/read\n",v[1],((z.tv_sec-a.tv_sec)*1e9+(z.tv_nsec-a.tv_nsec))/n/1000);}
